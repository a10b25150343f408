// The mirror of the lab's Debian bases: the machine's Debian archive read from its apt sources in
// either format, or the OVN_K8S_LAB_MIRROR override; a clear error when there is none.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { chooseDebianMirror, parseDeb822Sources, parseOneLineSources } from "../../lab/localcluster/aptSources";
import { labDebianMirror } from "../../lab/localcluster/debianBase";

const ONE_LINE = `# deb http://old.example/debian bookworm main
deb-src http://src.example/debian bookworm main
deb https://download.example/linux/debian bookworm stable
deb http://security.example/debian-security bookworm-security main
deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.example/debian/ bookworm main contrib # the archive
`;

const DEB822 = `Types: deb
URIs: http://disabled.example/debian
Suites: bookworm
Components: main
Enabled: no

Types: deb deb-src
# a comment between fields
URIs: http://proxy.example:3142/debian http://second.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 -----END PGP PUBLIC KEY BLOCK-----

Types: deb
URIs: http://proxy.example:3142/debian-security
Suites: bookworm-security
Components: main
`;

test("one-line sources: options and comments dropped, every entry read", () => {
    const sources = parseOneLineSources({ path: "/etc/apt/sources.list", text: ONE_LINE });
    assert.deepEqual(
        sources.map((s) => [s.types[0], s.uris[0], s.suites[0], s.components.join(" ")]),
        [
            ["deb-src", "http://src.example/debian", "bookworm", "main"],
            ["deb", "https://download.example/linux/debian", "bookworm", "stable"],
            ["deb", "http://security.example/debian-security", "bookworm-security", "main"],
            ["deb", "http://mirror.example/debian/", "bookworm", "main contrib"],
        ],
    );
    // Not the source package entry, not a third party's suite component, not the security archive.
    assert.equal(chooseDebianMirror(undefined, [{ path: "/etc/apt/sources.list", text: ONE_LINE }]), "http://mirror.example/debian");
});

test("deb822 sources: disabled stanzas skipped, continuation lines kept in their field, the first usable URI", () => {
    const sources = parseDeb822Sources({ path: "/etc/apt/sources.list.d/debian.sources", text: DEB822 });
    assert.equal(sources.length, 2);
    assert.deepEqual(sources[0].uris, ["http://proxy.example:3142/debian", "http://second.example/debian"]);
    assert.deepEqual(sources[0].types, ["deb", "deb-src"]);
    assert.equal(
        chooseDebianMirror(undefined, [{ path: "/etc/apt/sources.list.d/debian.sources", text: DEB822 }]),
        "http://proxy.example:3142/debian",
    );
});

test("the override wins over the sources, and is checked", () => {
    const files = [{ path: "/etc/apt/sources.list", text: ONE_LINE }];
    assert.equal(chooseDebianMirror("file:/srv/mirror/debian/", files), "file:/srv/mirror/debian");
    assert.equal(chooseDebianMirror("", files), "http://mirror.example/debian", "an empty override is no override");
    assert.throws(
        () => chooseDebianMirror("mirror.example/debian", files),
        /OVN_K8S_LAB_MIRROR="mirror\.example\/debian" is not a mirror URL/,
    );
    assert.throws(
        () => chooseDebianMirror("http://mirror.example/debian --keyring=/x", files),
        /OVN_K8S_LAB_MIRROR=.* is not a mirror URL/,
    );
});

test("no Debian archive: the error names the files read and the variable to set", () => {
    const thirdParty = { path: "/etc/apt/sources.list.d/vendor.list", text: "deb https://vendor.example/apt nodistro main\n" };
    assert.throws(
        () => chooseDebianMirror(undefined, [thirdParty]),
        (e: Error) => {
            assert.match(e.message, /no Debian archive .* in this machine's apt sources \(\/etc\/apt\/sources\.list\.d\/vendor\.list\)/);
            assert.match(e.message, /set OVN_K8S_LAB_MIRROR to a Debian mirror's URL/);
            return true;
        },
    );
    assert.throws(() => chooseDebianMirror(undefined, []), /\(no apt source file\): set OVN_K8S_LAB_MIRROR/);
});

test("the machine's files are read as apt reads them: sources.list, then *.list and *.sources in name order, others ignored", () => {
    const etc = fs.mkdtempSync(path.join(os.tmpdir(), "apt-sources-"));
    try {
        fs.mkdirSync(path.join(etc, "sources.list.d"));
        fs.writeFileSync(path.join(etc, "sources.list.d", "a.list.disabled"), "deb http://ignored.example/debian bookworm main\n");
        fs.writeFileSync(path.join(etc, "sources.list.d", "b.sources"), DEB822);
        fs.writeFileSync(path.join(etc, "sources.list.d", "c.list"), ONE_LINE);
        assert.equal(labDebianMirror({}, etc), "http://proxy.example:3142/debian");
        fs.writeFileSync(path.join(etc, "sources.list"), "deb http://first.example/debian trixie main\n");
        assert.equal(labDebianMirror({}, etc), "http://first.example/debian");
        assert.equal(labDebianMirror({ OVN_K8S_LAB_MIRROR: "http://override.example/debian" }, etc), "http://override.example/debian");
    } finally {
        fs.rmSync(etc, { recursive: true, force: true });
    }
});
