/**
 * Runs before any test file (bunfig.toml `preload`): generates the certificate fixtures once, up
 * front. In a fresh clone that takes tens of seconds on a loaded machine; done inside the first
 * test that reads a fixture, it would count against that test's timeout.
 */
import { ensureFixtures } from "./fixtures/fixtures.ts";

ensureFixtures();
