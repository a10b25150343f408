// The program for the prod stack under the SDK's mocks (each stack needs its own process).
import { test } from "node:test";
import { assertProgramTree } from "../support/programTree";

test("prod stack under mocks: component tree, outputs, secrets", () => assertProgramTree("prod"));
