// `up` and `preview`: runs the program through cmd/run and turns each registration into the step
// the engine would take. New → create. Known → the handler's diff: nothing, update, or replace
// (create the new one first and delete the old one after everything else, or delete first when
// deleteBeforeReplace is asked for). Resources in the state that the program no longer registers
// are deleted after a successful run, last registered first. A failed run deletes nothing and keeps
// what it did not reach, so the next `up` converges. A registration not in the state under its URN
// is sought under its aliases (./aliases); found there, it is the same resource under a new URN,
// and the state's references to the old URN follow it.
import { aliasUrns } from "./aliases";
import { applyReplaceOnChanges, isReplacement, processIgnoreChanges } from "./engineDiff";
import { runProgram } from "./runProgram";
import type { Registration, RegisterResult } from "./monitor";
import type { Operation } from "./operation";
import { operationResult, type OpKind, type OperationResult, type ResourceOp } from "./results";
import type { StateResource } from "./state";
import { annotateSecrets, maskSecrets, plainStrings, secretStrings, type Props } from "./values";

const entry = (reg: Registration, inputs: Props, id: string | undefined, outputs: Props): StateResource => ({
    urn: reg.urn,
    type: reg.type,
    name: reg.name,
    parent: reg.parent,
    custom: reg.custom,
    ...(id !== undefined ? { id } : {}),
    ...(reg.provider ? { provider: reg.provider } : {}),
    inputs,
    outputs,
    dependencies: reg.dependencies,
});

const programError = (logs: { severity: string; message: string }[], stderr: string) =>
    logs
        .filter((l) => l.severity === "error")
        .map((l) => l.message.trim())
        .join("\n") || stderr.trim().split("\n").slice(-20).join("\n");

export async function deploy(
    op: Operation,
    dryRun: boolean,
    onOp: (o: ResourceOp) => void = () => {},
    continueOnError = false,
): Promise<OperationResult> {
    const started = Date.now();
    const { handlers, redactor, state, profile } = op;
    const previous = state.resources;
    const olds = new Map(previous.filter((r) => !r.pendingDelete).map((r) => [r.urn, r]));
    const next: StateResource[] = [];
    const registered = new Set<string>();
    /** URNs whose old state has been superseded (recorded anew, or deleted before its replacement). */
    const settled = new Set<string>();
    const toDeleteLater: StateResource[] = previous.filter((r) => r.pendingDelete);
    const ops: ResourceOp[] = [];
    let failure: string | undefined;
    /** URNs whose step failed or was skipped: with continueOnError, what depends on one is skipped too. */
    const failed = new Set<string>();
    /** Old URN → the URN of this run's registration found under it by an alias, and back. */
    const movedTo = new Map<string, string>();
    const movedFrom = new Map<string, string>();
    const scope = { stack: op.stack, project: op.project.name, aliasedFrom: (urn: string) => movedFrom.get(urn) };

    const follow = (urn: string) => movedTo.get(urn) ?? urn;
    const withMoves = (r: StateResource): StateResource =>
        movedTo.size === 0 ? r : { ...r, parent: follow(r.parent), dependencies: r.dependencies.map(follow) };
    const snapshot = (): StateResource[] =>
        [
            ...next,
            ...[...olds.values()].filter((r) => !settled.has(r.urn)),
            ...toDeleteLater.map((r) => ({ ...r, pendingDelete: true })),
        ].map(withMoves);

    /** The registration's old state: under its URN, else under the first of its aliases the state holds. */
    function oldOf(reg: Registration): StateResource | undefined {
        const own = olds.get(reg.urn);
        if (own || (reg.aliases.length === 0 && !movedFrom.has(reg.parent))) return own;
        for (const alias of aliasUrns(reg, reg.aliases, scope)) {
            const old = olds.get(alias);
            if (!old || alias === reg.urn) continue;
            const claimant = movedTo.get(alias) ?? (registered.has(alias) ? alias : undefined);
            if (claimant)
                throw new Error(
                    `Duplicate resource alias '${alias}' applied to resource with URN '${reg.urn}' conflicting with resource with URN '${claimant}'`,
                );
            movedTo.set(alias, reg.urn);
            movedFrom.set(reg.urn, alias);
            registered.add(alias);
            settled.add(alias);
            return old;
        }
        return undefined;
    }
    const persist = (outputs = state.outputs) => {
        if (!dryRun) op.save({ ...state, outputs, resources: snapshot() });
    };
    const report = (o: ResourceOp) => {
        ops.push(o);
        onOp(o);
    };

    // Steps under way: after a failure the engine starts no new step but waits for these to end and
    // records them (pulumi v3.259.0 pkg/resource/deploy/step_executor.go:390-393, WaitForCompletion).
    const inFlight = new Set<Promise<unknown>>();
    function step(reg: Registration): Promise<RegisterResult> {
        const running = carryOut(reg);
        const settled = running.then(
            () => undefined,
            () => undefined,
        );
        inFlight.add(settled);
        void settled.then(() => inFlight.delete(settled));
        return running;
    }

    async function carryOut(reg: Registration): Promise<RegisterResult> {
        // After a failed step the engine starts no further steps; the program is being stopped. With
        // --continue-on-error it skips only the steps that depend on a failed or skipped one, by parent,
        // dependency or provider (pulumi v3.259.0 pkg/resource/deploy/deployment_executor.go:559-573, 630-642).
        if (failure !== undefined && !continueOnError) throw new Error("cancelled after an earlier failure");
        const provider = reg.provider ? reg.provider.slice(0, reg.provider.lastIndexOf("::")) : "";
        const blocker = [reg.parent, provider, ...reg.dependencies].find((urn) => failed.has(urn));
        if (blocker !== undefined) {
            failed.add(reg.urn);
            throw new Error(`${reg.type} ${reg.name}: skipped: it depends on ${blocker.split("::").pop()}, which failed`);
        }
        registered.add(reg.urn);
        // The stack registers once cmd/run has started and loaded the SDK; the first resource once
        // the program's modules have loaded (TypeScript compiled by ts-node).
        profile.reached(
            reg.type === "pulumi:pulumi:Stack" ? "program: SDK loaded, stack registered" : "program: loaded, first resource registered",
        );
        redactor.add(secretStrings(reg.inputs));
        redactor.addPublic(plainStrings(reg.inputs));
        const t0 = Date.now();
        let kind: OpKind = "create";
        let keys: string[] = [];
        let detailedDiff: ResourceOp["detailedDiff"];
        try {
            const found = oldOf(reg);
            // Diffed and updated under its new URN, as the engine does; deleted under the one it had.
            const old = found && found.urn !== reg.urn ? { ...found, urn: reg.urn } : found;
            const h = handlers.for(reg.type, reg.custom);
            // ignoreChanges: the engine sets those paths back to the old inputs before Check.
            const inputs = await h.check(
                old ? { ...reg, inputs: processIgnoreChanges(reg.inputs, old.inputs, reg.ignoreChanges).inputs } : reg,
                old,
            );
            let id: string | undefined;
            let outputs: Props = inputs;
            if (!old) {
                if (!dryRun) ({ id, outputs } = await h.create(reg, inputs));
            } else {
                const reply = await h.diff(old, inputs, reg);
                const d = applyReplaceOnChanges({ ...reply, changedKeys: reply.changedKeys ?? reply.keys }, reg.replaceOnChanges);
                keys = reply.keys;
                detailedDiff = d.detailedDiff;
                if (!d.changes) {
                    kind = "same";
                    ({ id, outputs } = old);
                } else if (isReplacement(d)) {
                    kind = "replace";
                    if (d.replaceKeys.length > 0) keys = d.replaceKeys;
                    const deleteFirst = reg.deleteBeforeReplaceSet ? reg.deleteBeforeReplace : d.deleteBeforeReplace;
                    if (!dryRun) {
                        if (deleteFirst) {
                            await h.delete(found!);
                            settled.add(reg.urn);
                            persist();
                        }
                        ({ id, outputs } = await h.create(reg, inputs));
                        if (!deleteFirst) toDeleteLater.push(found!);
                    }
                } else {
                    kind = "update";
                    id = old.id;
                    if (!dryRun) outputs = await h.update(old, inputs, reg);
                }
            }
            if (kind !== "same") outputs = annotateSecrets(outputs, inputs, reg.additionalSecretOutputs);
            redactor.add(secretStrings(outputs));
            next.push(entry(reg, inputs, id, outputs));
            settled.add(reg.urn);
            // As the engine's snapshot manager: a step that changed nothing leaves the checkpoint
            // as it is (the old record stands for it), so a no-op run writes the state once, at the end.
            if (kind !== "same" || movedFrom.has(reg.urn)) persist();
            report({
                op: kind,
                urn: reg.urn,
                type: reg.type,
                name: reg.name,
                keys,
                ...(detailedDiff ? { detailedDiff } : {}),
                ms: Date.now() - t0,
            });
            if (reg.custom) profile.reached("steps: first custom resource done");
            // A preview has no IDs for what it would create; the SDK treats "" as unknown.
            return { id: dryRun && (kind === "create" || kind === "replace") ? "" : id, outputs };
        } catch (e) {
            const message = redactor.text(`${reg.type} ${reg.name}: ${(e as Error).message}`);
            failure ??= message;
            failed.add(reg.urn);
            report({ op: kind, urn: reg.urn, type: reg.type, name: reg.name, keys, ms: Date.now() - t0, error: message });
            throw new Error(message);
        }
    }

    let run;
    try {
        run = await runProgram({
            projectDir: op.project.dir,
            project: op.project.name,
            stack: op.stack,
            config: op.stackConfig.config,
            secretKeys: op.stackConfig.secretKeys,
            dryRun,
            register: step,
        });
    } catch (e) {
        await handlers.close();
        throw e;
    }
    while (inFlight.size > 0) await Promise.all([...inFlight]);
    profile.reached("program: exited");
    const programOk = run.code === 0 && failure === undefined;
    if (!programOk && failure === undefined)
        failure = redactor.text(`the program failed (exit ${run.code}):\n${programError(run.monitor.logs, run.stderr)}`);

    // Components and the stack get their outputs from registerOutputs, which comes after registration.
    for (const r of next) if (!r.custom) r.outputs = run.monitor.outputs.get(r.urn) ?? r.outputs;
    const stackOutputs = programOk ? (run.monitor.outputs.get(run.monitor.rootUrn()) ?? {}) : state.outputs;

    if (programOk) {
        // What the program no longer declares, and the old halves of replacements: last registered first.
        const gone = [...olds.values()].filter((r) => !registered.has(r.urn));
        const deletions = [...gone, ...toDeleteLater].sort((a, b) => previous.indexOf(b) - previous.indexOf(a));
        for (const r of deletions) {
            const kind: OpKind = gone.includes(r) ? "delete" : "delete-replaced";
            const t0 = Date.now();
            try {
                if (!dryRun) await handlers.for(r.type, r.custom).delete(r);
                if (kind === "delete") settled.add(r.urn);
                else toDeleteLater.splice(toDeleteLater.indexOf(r), 1);
                persist(stackOutputs);
                report({ op: kind, urn: r.urn, type: r.type, name: r.name, keys: [], ms: Date.now() - t0 });
            } catch (e) {
                failure = redactor.text(`${r.type} ${r.name}: ${(e as Error).message}`);
                report({ op: kind, urn: r.urn, type: r.type, name: r.name, keys: [], ms: Date.now() - t0, error: failure });
                break;
            }
        }
    }
    persist(stackOutputs);
    await handlers.close();
    profile.reached("done");

    const base = { operation: dryRun ? ("preview" as const) : ("up" as const), stack: op.stack, dryRun, statePath: op.statePath, started };
    return { ...operationResult(base, ops, failure, { outputs: maskSecrets(stackOutputs) as Props }), profile: profile.report() };
}
