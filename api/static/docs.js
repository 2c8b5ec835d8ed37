// The API docs page: Swagger UI (served by this server, see api/routes/demo.py) on
// the OpenAPI schema. A file of its own, as the Content-Security-Policy allows no
// inline script.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
