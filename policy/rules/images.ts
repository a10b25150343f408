// Image references pinned by tag or digest: every container of every Kubernetes object the stack
// deploys names its image with a tag other than the forbidden ones (`latest` by default) or with
// a digest; `requireDigest` asks for digests only (a tag can be moved, a digest cannot).
import type { PolicyConfigSchema, ResourceValidationPolicy } from "@pulumi/policy";
import { objectName, settingsOf } from "./scope";

interface Settings {
    forbiddenTags: string[];
    requireDigest: boolean;
}

/** `registry[:port]/path[:tag][@sha256:<hex>]` → its tag and digest (the registry's port is no tag). */
export function imageReference(image: string): { tag?: string; digest?: string } {
    const [name, digest] = image.split("@", 2);
    const last = name.slice(name.lastIndexOf("/") + 1);
    const colon = last.indexOf(":");
    return { ...(colon >= 0 ? { tag: last.slice(colon + 1) } : {}), ...(digest !== undefined ? { digest } : {}) };
}

function* containers(props: Record<string, any>): Generator<{ name: string; image: string }> {
    const pod = props.spec?.template?.spec ?? props.spec;
    for (const c of [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])]) if (typeof c?.image === "string") yield c;
}

const settings: PolicyConfigSchema = {
    properties: {
        forbiddenTags: { type: "array", items: { type: "string" }, default: ["latest"], description: "tags that do not pin an image" },
        requireDigest: { type: "boolean", default: false, description: "accept digests (@sha256:…) only" },
    },
};

export const imagesPinned: ResourceValidationPolicy = {
    name: "images-pinned",
    description: "Every container image is pinned by a tag (not latest) or by a digest.",
    enforcementLevel: "mandatory",
    configSchema: settings,
    validateResource(args, reportViolation) {
        if (!args.type.startsWith("kubernetes:")) return;
        const { forbiddenTags, requireDigest } = settingsOf<Settings>(settings, args.getConfig());
        for (const c of containers(args.props)) {
            const { tag, digest } = imageReference(c.image);
            const fix = "set ovnkube.image to a reference with a release tag or a digest";
            if (requireDigest && !/^sha256:[0-9a-f]{64}$/.test(digest ?? ""))
                reportViolation(
                    `${objectName(args.props)} container ${c.name}: image ${c.image} has no sha256 digest; ${fix.replace("a release tag or ", "")}`,
                );
            else if (!digest && (tag === undefined || forbiddenTags.includes(tag)))
                reportViolation(
                    `${objectName(args.props)} container ${c.name}: image ${c.image} is ${tag === undefined ? "untagged" : `tagged ${tag}`}, which does not pin it; ${fix}`,
                );
        }
    },
};
