// Resources that exist only in the state: the stack, component resources and provider resources
// (pulumi:providers:*). The engine compares their inputs like any other and records the result;
// nothing outside the state changes. A provider gets an ID of its own, kept while it lives.
import { randomUUID } from "node:crypto";
import { changedKeys } from "../values";
import { inputDiff, type ResourceHandler } from "./types";

export function recordedHandler(): ResourceHandler {
    return {
        async check(reg) {
            return reg.inputs;
        },
        async diff(old, inputs) {
            return inputDiff(changedKeys(old.inputs, inputs), []);
        },
        async create(reg, inputs) {
            return { id: reg.custom ? randomUUID() : undefined, outputs: inputs };
        },
        async update(_old, inputs) {
            return inputs;
        },
        async delete() {},
        async read(old) {
            return { id: old.id, outputs: old.outputs };
        },
    };
}
