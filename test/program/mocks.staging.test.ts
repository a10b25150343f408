// The program for the staging stack (ovnkube mode, interconnect: a zone per node, no central)
// under the SDK's mocks (each stack needs its own process).
import { test } from "node:test";
import { assertProgramTree } from "../support/programTree";

test("staging stack under mocks: component tree, outputs, secrets", () => assertProgramTree("staging"));
