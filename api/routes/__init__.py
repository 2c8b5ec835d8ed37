"""The API's routers: one module per group of endpoints."""
