/**
 * The bundle writer: a {@link ProgramBundle} to its files, deterministically (same bundle,
 * same bytes). See `bundle.ts` for the layout.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TargetDiagnostic } from '../target-diagnostic';
import { formatNetworkTable } from '../config/network';
import { exportArchitectureJson } from '../config/validate';
import { formatProgramJson } from '../encoding/json-form';
import { encodePimb } from '../encoding/pimb';
import { BUNDLE_FILES, MANIFEST_FORMAT, MANIFEST_VERSION, coreFileName, type ProgramBundle } from './bundle';

/** Options of {@link writeBundleFiles}. */
export interface WriteBundleOptions {
  /** Also write `core_<id>.json` beside every `core_<id>.pim`. Default false. */
  json?: boolean;
}

/** The result of {@link writeBundleFiles}. */
export interface BundleWriting {
  /** File name → bytes, in a deterministic order; `undefined` when a program could not be encoded. */
  files: Map<string, Uint8Array> | undefined;
  /** Encoding errors and lossy-encoding warnings (file and instruction index). */
  diagnostics: TargetDiagnostic[];
}

const encoder = new TextEncoder();

/** `config.json` exactly as pimsim-nn's examples print it (Python `json.dumps` spacing). */
export function formatBundleConfig(coreCount: number, arrayGroupMap: readonly (readonly number[])[]): string {
  const entries: string[] = [];
  for (let id = 0; id < coreCount; id++) entries.push(`"core${id}": [${(arrayGroupMap[id] ?? []).join(', ')}]`);
  return `{"core_cnt": ${coreCount}, "array_group_map": {${entries.join(', ')}}}`;
}

function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

/**
 * Serialises a bundle to files (pure; see {@link writeBundle} for the directory form).
 *
 * `manifest.json` is written when the bundle has a target, tensors, a memory image or
 * weights; without them the result is a plain pimsim-nn program directory. Weight blocks are
 * stored in `weights.bin` sorted by (core, group), each at an 8-byte-aligned offset.
 */
export function writeBundleFiles(bundle: ProgramBundle, options: WriteBundleOptions = {}): BundleWriting {
  const diagnostics: TargetDiagnostic[] = [];
  const files = new Map<string, Uint8Array>();
  files.set(BUNDLE_FILES.config, encoder.encode(formatBundleConfig(bundle.coreCount, bundle.arrayGroupMap)));
  let ok = true;
  for (let id = 0; id < bundle.coreCount; id++) {
    const program = bundle.programs[id] ?? [];
    const name = coreFileName(id, 'pim');
    const encoded = encodePimb(program, { file: name });
    diagnostics.push(...encoded.diagnostics);
    if (encoded.bytes === undefined) ok = false;
    else files.set(name, encoded.bytes);
    if (options.json) files.set(coreFileName(id, 'json'), encoder.encode(formatProgramJson(program)));
  }
  const needsManifest =
    bundle.target !== undefined ||
    bundle.inputs.length > 0 ||
    bundle.outputs.length > 0 ||
    bundle.memoryImage !== undefined ||
    bundle.weights.length > 0;
  if (needsManifest) {
    const manifest: Record<string, unknown> = { format: MANIFEST_FORMAT, format_version: MANIFEST_VERSION };
    if (bundle.producer !== undefined) manifest.producer = bundle.producer;
    if (bundle.target) {
      const config = JSON.parse(JSON.stringify(bundle.target.config)) as typeof bundle.target.config;
      const network = bundle.target.network;
      const hasTable = network.latency.size > 0 || network.energy.size > 0;
      config.chip_config.network_config.net_config_file_path = hasTable ? BUNDLE_FILES.network : '';
      if (hasTable) files.set(BUNDLE_FILES.network, encoder.encode(formatNetworkTable(network)));
      manifest.target = JSON.parse(exportArchitectureJson(config));
    }
    const tensor = (t: ProgramBundle['inputs'][number]) => ({
      name: t.name,
      address: t.address,
      element_type: t.elementType,
      shape: t.shape,
    });
    manifest.inputs = bundle.inputs.map(tensor);
    manifest.outputs = bundle.outputs.map(tensor);
    if (bundle.memoryImage !== undefined) {
      files.set(BUNDLE_FILES.memory, bundle.memoryImage.slice());
      manifest.memory = { file: BUNDLE_FILES.memory, size: bundle.memoryImage.length };
    }
    if (bundle.weights.length > 0) {
      const blocks = [...bundle.weights].sort((a, b) => a.core - b.core || a.group - b.group);
      let size = 0;
      const entries = blocks.map((block) => {
        const offset = align(size, 8);
        size = offset + block.data.length;
        return {
          core: block.core,
          group: block.group,
          rows: block.rows,
          cols: block.cols,
          element_type: block.elementType,
          offset,
          size: block.data.length,
        };
      });
      const data = new Uint8Array(size);
      blocks.forEach((block, i) => data.set(block.data, entries[i]!.offset));
      files.set(BUNDLE_FILES.weights, data);
      manifest.weights = { file: BUNDLE_FILES.weights, entries };
    }
    files.set(BUNDLE_FILES.manifest, encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`));
  }
  return { files: ok ? files : undefined, diagnostics };
}

const OWNED = new Set<string>(Object.values(BUNDLE_FILES));

/**
 * Writes a bundle directory (created if needed). Files of an earlier bundle in the directory
 * that this one does not rewrite (`core_*` files, `manifest.json`, `memory.bin`,
 * `weights.bin`, `network.json`) are removed first, so a smaller bundle never leaves stale
 * core files that pimsim-nn would reject. Other files are left alone. Returns the
 * diagnostics of {@link writeBundleFiles}; nothing is written when it fails.
 */
export function writeBundle(directory: string, bundle: ProgramBundle, options: WriteBundleOptions = {}): TargetDiagnostic[] {
  const result = writeBundleFiles(bundle, options);
  if (result.files === undefined) return result.diagnostics;
  fs.mkdirSync(directory, { recursive: true });
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    if (entry.isFile() && (entry.name.startsWith('core_') || OWNED.has(entry.name)) && !result.files.has(entry.name)) {
      fs.rmSync(path.join(directory, entry.name));
    }
  }
  for (const [name, bytes] of result.files) fs.writeFileSync(path.join(directory, name), bytes);
  return result.diagnostics;
}
