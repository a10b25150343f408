import { apply, refresh, destroy, preview } from "../../offline/api";
import { startFixture, STDIN_SECRET } from "./fixtureStack";
(async () => {
  let t = Date.now();
  const f = await startFixture();
  console.log("fixture", Date.now() - t);
  try {
    const log = (o: any) => console.log(Date.now() - t, o.op, o.name, o.ms);
    t = Date.now();
    let r = await apply(f.options({ onOp: log }));
    console.log("apply", Date.now() - t, r.ms);
    t = Date.now();
    r = await refresh(f.options({ onOp: log }));
    console.log("refresh", Date.now() - t);
    t = Date.now();
    r = await destroy(f.options({ onOp: log }));
    console.log("destroy", Date.now() - t);
  } finally { t = Date.now(); await f.cleanup(); console.log("cleanup", Date.now() - t); }
})();
