// The pictures checked in under docs/pictures, by file name: `npm run docs:pictures` writes them,
// test/pictures/docsPictures.test.ts fails when one is stale.
import { exampleDifferences, largeInterconnectStack, largePulumiStack, modelOf, stackFile } from "./examples";
import { liveTopologySvg, plannedTopologySvg } from ".";

export const DOCS_PICTURES: Record<string, () => Promise<string>> = {
    "dev.svg": () => plannedTopologySvg(modelOf(stackFile("dev")), "dev"),
    "staging.svg": () => plannedTopologySvg(modelOf(stackFile("staging")), "staging"),
    "staging-live-example.svg": () => {
        const model = modelOf(stackFile("staging"));
        return liveTopologySvg(model, "staging (example reading)", exampleDifferences(model, "10.128.200.0/23", "worker-0", "worker-1"));
    },
    "large-pulumi-50.svg": () => plannedTopologySvg(modelOf(largePulumiStack()), "large-pulumi (generated)"),
    "large-interconnect-50.svg": () => plannedTopologySvg(modelOf(largeInterconnectStack()), "large-interconnect (generated)"),
};
