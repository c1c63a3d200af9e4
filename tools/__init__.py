"""Native tools served by the hub (thin functions over the core) and the bundled workspace server."""
