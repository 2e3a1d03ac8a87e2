import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { CatalogFileSchema, type CatalogFile } from '../../shared/schemas/catalog';
import type { CatalogContribution } from '../core/catalog/types';

/**
 * Starts the simulated fleet (dist/bench/fleet.mjs) in its own process and returns its catalog as
 * a catalog file, providers renamed sim-*, so the benches' own process does none of the upstream work.
 */
export async function fleetProcess(root: string): Promise<{ child: ChildProcess; catalog: CatalogFile }> {
  const child = spawn(process.execPath, [join(root, 'dist', 'bench', 'fleet.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`the fleet exited with ${code}`)));
  });
  const contribution = JSON.parse(line) as CatalogContribution;
  const catalog = CatalogFileSchema.parse({
    version: 1,
    providers: (contribution.providers ?? []).map(({ source: _s, simulated: _sim, ...p }) => ({ ...p, slug: p.slug.replace('sandbox-', 'sim-') })),
    models: (contribution.models ?? []).map(({ source: _s, ...m }) => m),
    endpoints: (contribution.endpoints ?? []).map((e) => ({
      ...e,
      provider: e.provider.replace('sandbox-', 'sim-'),
      supported_parameters: [...e.supported_parameters],
    })),
  });
  return { child, catalog };
}
