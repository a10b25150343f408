import { apply } from "../../offline/api";
import { startFixture } from "./fixtureStack";
(async () => {
  const f = await startFixture();
  try {
    const T0 = Date.now(); const log = (o: any) => console.log(Date.now() - T0, o.op, o.name, o.ms, (o.error ?? "").slice(0, 40));
    f.write({ invalidDaemonSet: true });
    let r = await apply(f.options({ onOp: log }));
    console.log(Date.now() - T0, r.ok, r.error);
  } finally { await f.cleanup(); }
})();
