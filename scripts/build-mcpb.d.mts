// Types for scripts/build-mcpb.mjs, so TypeScript tests can import it.
export interface BundleManifest {
  manifest_version: string;
  name: string;
  version: string;
  server: { type: 'node'; entry_point: string; mcp_config: { command: string; args: string[]; env?: Record<string, string> } };
  tools: { name: string; description?: string }[];
  compatibility: { platforms: string[]; runtimes: { node: string } };
  icon?: string;
}
export function buildBundle(options?: { root?: string; outDir?: string; mainDir?: string }): Promise<{ file: string; manifest: BundleManifest; staged: string }>;
