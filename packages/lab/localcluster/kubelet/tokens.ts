// Service-account tokens of a pod's projected volumes, obtained with the TokenRequest API bound to
// the pod and renewed as the kubelet's token manager does (pkg/kubelet/token): once 80 % of the
// lifetime has passed, or 24 h after issue, whichever comes first.
import { KubeletApi } from "./api";
import type { Pod } from "./types";
import { TokenSource, tokenSources } from "./volumeFiles";

const MAX_TTL_MS = 24 * 3600 * 1000;

interface Issued {
    token: string;
    expiresMs: number;
    expirationSeconds: number;
}

/** True when the token must be requested again (pure). */
export function tokenNeedsRefresh(t: Issued, nowMs: number): boolean {
    const issuedMs = t.expiresMs - t.expirationSeconds * 1000;
    return nowMs >= issuedMs + MAX_TTL_MS || nowMs >= t.expiresMs - t.expirationSeconds * 200;
}

/** The tokens of one pod, by TokenSource key, fetched on first use and renewed when due. */
export class PodTokens {
    private readonly issued = new Map<string, Issued>();
    private readonly sources: TokenSource[];

    constructor(
        private readonly api: KubeletApi,
        private readonly pod: Pod,
    ) {
        this.sources = tokenSources(pod);
    }

    /** The earliest moment a token must be renewed (ms since the epoch), for the volume refresh schedule. */
    nextRefreshMs(): number {
        let next = Infinity;
        for (const t of this.issued.values()) next = Math.min(next, t.expiresMs - t.expirationSeconds * 200);
        return next;
    }

    async current(nowMs = Date.now()): Promise<Map<string, string>> {
        for (const s of this.sources) {
            const have = this.issued.get(s.key);
            if (have && !tokenNeedsRefresh(have, nowMs)) continue;
            const r = await this.api.requestToken(this.pod, s.audiences, s.expirationSeconds);
            this.issued.set(s.key, { token: r.token, expiresMs: Date.parse(r.expirationTimestamp), expirationSeconds: s.expirationSeconds });
        }
        return new Map([...this.issued].map(([k, t]) => [k, t.token]));
    }
}
