/**
 * The API reference page (`GET /api/v1/docs`): Swagger UI from the npm package swagger-ui-dist,
 * its files served by this app under `docs/assets/` (no CDN, no inline script), reading
 * `openapi.json` beside it.
 */
export function referencePage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Partner Payments API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/assets/init.js"></script>
</body>
</html>
`;
}

/** Starts Swagger UI on the document; "Try it out" sends requests to this same origin. */
export const REFERENCE_INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    validatorUrl: null
  });
});
`;
