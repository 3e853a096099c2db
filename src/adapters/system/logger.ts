/**
 * Temporary re-export: the logger moved to src/process/logger.ts. Kept only until src/app.ts
 * (being reworked on main) imports the new place; then this file is deleted.
 */
export type { Logger } from "../../process/logger.ts";
