// What the provider stubs in state require() at run time (exports "./providers"). Loading the
// modules that define dynamic resources registers their providers (../dynamic/stub); only those
// are loaded, so the provider host does not pay for the rest of the package.
import "./nb";
import "./nb/expectation";
import "./guard/destroyGuard";
import "./guard/changeGuard";
import "./guard/clusterIdentityCheck";
import "./hosts/centralMembership";
import "./compat/tunnelTypeCheck";
import "./compat/schemaCheck";
import "./compat/tunnelMtuCheck";
import "./hosts/nicHandoverCheck";
import "./hosts/scriptBundle";
import "./hosts/vtepBindings";
import "./ssh/hostKeyCheck";
import "./kube/webhookCertificate";
import "./hosts/ipsecCertificates";

export { installedProvider } from "./dynamic/registry";
