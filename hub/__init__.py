"""The async MCP layer: config, downstream supervisors, the served hub, transports and the CLI."""

__version__ = "0.1.0"
