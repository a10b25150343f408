import { apply, refresh, destroy, preview } from "../../offline/api";
import { startFixture, STDIN_SECRET } from "./fixtureStack";
import * as fs from "fs";
(async () => {
  const f = await startFixture();
  try {
    const T0 = Date.now(); const log = (o: any) => console.log(Date.now() - T0, o.op, o.name, o.keys, o.error ?? "");
    let r = await apply(f.options({ onOp: log }));
    const st = fs.readFileSync(f.work + "/state/test.json", "utf8");
    console.log(st.slice(0, 2500), st.includes(STDIN_SECRET), st.includes("OPENSSH"));
    fs.writeFileSync(f.hostDir + "/dynamic.txt", "changed");
    r = await refresh(f.options({ onOp: log }));
    console.log(r.ok, r.error, r.counts, r.drift);
    f.write({ note: "x" });
    r = await preview(f.options({ onOp: log }));
    console.log(r.ok, r.error, r.counts, f.opsLog());
    r = await apply(f.options({ onOp: log }));
    console.log(r.ok, r.error, r.counts, f.opsLog());
    f.write({ note: "x", trigger: "2" });
    r = await apply(f.options({ onOp: log }));
    console.log(r.ok, r.error, r.counts, f.opsLog());
    f.write({ note: "x", trigger: "2", invalidDaemonSet: true });
    r = await apply(f.options({ onOp: log }));
    console.log(r.ok, r.error, r.counts, f.opsLog());
    r = await destroy(f.options({ onOp: log }));
    console.log(r.ok, r.error, r.counts, f.opsLog());
  } finally { await f.cleanup(); }
})();
