// Every rule of the pack, in the order the docs list them (docs/policies.md).
import type { Policies } from "@pulumi/policy";
import { apiServerOverHttps } from "./apiServerHttps";
import { hostKeysVerified } from "./hostKeys";
import { identityWebhookOn } from "./identityWebhook";
import { imagesPinned } from "./images";
import { ovsdbOverSsl } from "./ovsdbSsl";
import { packagesPinned } from "./packagesPinned";
import { roleChangeNeedsDrain } from "./roleChange";
import { mtuFitsTunnel } from "./tunnelMtu";

export const POLICIES: Policies = [
    ovsdbOverSsl,
    hostKeysVerified,
    identityWebhookOn,
    mtuFitsTunnel,
    roleChangeNeedsDrain,
    imagesPinned,
    apiServerOverHttps,
    packagesPinned,
];
