/**
 * electron/mcp — Tempora's memory for other agents over the Model Context Protocol: the face beside
 * cli/ and server/. `tempora mcp` serves it over stdio; the bridge mounts the HTTP handler at /mcp.
 */
export { createMcpHttpHandler, MCP_PATH, type McpHttpOptions, type McpHttpRequestHandler } from './mcp-http';
export { keepStdoutForFrames, serveMcpOverStdio, serveRefusalOverStdio, type StdioMcp } from './mcp-stdio';
export { McpFace, SERVER_INFO, type McpFaceOptions } from './mcp-server';
export { CURRENT_FACTS_URI } from './facts-resource';
