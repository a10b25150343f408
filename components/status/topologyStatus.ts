// The live topology compared with the plan: every Northbound database (the central's, or each
// zone's) read for the rows the plan puts in it (./plannedRows), in one read-only transaction each
// over SSH, as the ovnkube-mode expectations read them. Nothing is written.
import type { ClusterModel } from "../model/types";
import { mismatches, type Mismatch } from "../nb/expectation/observe";
import { observeNb } from "../nb/expectation/observeNb";
import { nbConnection } from "../program/connections";
import { centralHostsOf, hostOf } from "../topology/context";
import { plannedNbRows } from "./plannedRows";

/** What one Northbound database holds compared with its planned rows. */
export interface NbDifferences {
    /** The host whose NB was read. */
    host: string;
    /** Interconnect: the zone whose NB this is. */
    zone?: string;
    /** Empty when the database holds the rows as planned. */
    differences: Mismatch[];
    /** The database could not be read. */
    error?: string;
}

export async function topologyDifferences(model: ClusterModel, privateKey: string): Promise<NbDifferences[]> {
    const centrals = centralHostsOf(model);
    return Promise.all(
        plannedNbRows(model).map(async (nb): Promise<NbDifferences> => {
            const zone = nb.zone ? { zone: nb.zone } : {};
            const connection = nbConnection(hostOf(model, nb.host), { privateKey }, nb.zone ? undefined : centrals);
            try {
                return { host: nb.host, ...zone, differences: mismatches(nb.rows, await observeNb(connection, nb.rows)) };
            } catch (e) {
                return { host: nb.host, ...zone, differences: [], error: (e as Error).message };
            }
        }),
    );
}
