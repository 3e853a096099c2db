/**
 * Swagger UI's browser bundle and stylesheet, imported `with { type: "file" }`: Bun gives the
 * path of the file (inside the executable after `bun build --compile`), not its contents.
 */
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const path: string;
  export default path;
}

declare module "swagger-ui-dist/swagger-ui.css" {
  const path: string;
  export default path;
}
