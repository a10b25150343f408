// A throwaway CA and one certificate it signed, made by openssl for tests of OVN's SSL transport
// (OVN checks the peer's chain against the CA, not its name, so one certificate serves every host).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Pki {
    key: string;
    cert: string;
    ca: string;
}

export function makePki(name: string): Pki {
    const dir = mkdtempSync(join(tmpdir(), `${name}-pki-`));
    const f = (n: string) => join(dir, n);
    const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
    try {
        openssl([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            f("ca.key"),
            "-out",
            f("ca.pem"),
            "-days",
            "2",
            "-subj",
            `/CN=${name}-ca`,
        ]);
        openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", f("ovn.key"), "-out", f("ovn.csr"), "-subj", "/CN=ovn"]);
        openssl([
            "x509",
            "-req",
            "-in",
            f("ovn.csr"),
            "-CA",
            f("ca.pem"),
            "-CAkey",
            f("ca.key"),
            "-CAcreateserial",
            "-out",
            f("ovn.pem"),
            "-days",
            "2",
        ]);
        return { key: readFileSync(f("ovn.key"), "utf8"), cert: readFileSync(f("ovn.pem"), "utf8"), ca: readFileSync(f("ca.pem"), "utf8") };
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
