// What reading a group's rows returns (./snapshot reads them, ./claims decides which are the group's).
import type { Row } from "../../ovsdb/encoding";
import type { NbTable } from "./tables";

export interface LiveRow {
    uuid: string;
    table: NbTable;
    /** The row's TAG_ROW; "" when a tagged row lost it. */
    key: string;
    row: Row;
}

export interface Snapshot {
    /** Rows tagged as the group's own, in server order, every column. */
    own: LiveRow[];
    /** Rows of other groups this group refers to, by refId, normally exactly one each: only `_uuid` and `external_ids`. */
    foreign: Record<string, LiveRow[]>;
    /**
     * UUIDs of own rows found in their parent's set, for parents of other groups. Asked separately
     * rather than reading those parents' sets: the cluster router's `ports` holds every node's
     * port, and reading it for every node makes N nodes cost N² bytes.
     */
    attached?: Record<string, true>;
    /** Row key → the row the state recorded for it; `row` is absent when NB no longer has that UUID. */
    recorded?: Record<string, { table: NbTable; uuid: string; row?: LiveRow }>;
}
