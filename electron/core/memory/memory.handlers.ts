/** `memory.*`: the memory store's operations, its history (`memory.asOf`), export, import and maintenance. */
import type { OpOutput } from '../../../shared/contract';
import type { HandlersFor } from '../rpc/dispatcher';
import type { MemoryExporter } from './memory-export';
import type { MemoryImporter } from './memory-import';
import type { MemoryMaintenance } from './memory-maintenance';
import type { MemoryService } from './memory.service';

export interface MemoryHandlerDeps {
  memories: MemoryService;
  /** The memories as they were at a time (timeline/timeline.service.ts; timeline/ ranks above memory/). */
  timeline: { asOf(input: { at: number; limit: number; offset: number }): OpOutput<'memory.asOf'> };
  exporter: MemoryExporter;
  importer: MemoryImporter;
  maintenance: MemoryMaintenance;
  /** Undoes a consolidation summary (memory-unconsolidate.ts). */
  unconsolidate: (summaryId: number) => OpOutput<'memory.unconsolidate'>;
  /** Which other apps read or wrote the memory (mcp/mcp.service.ts). */
  access: (memoryId: number) => OpOutput<'memory.access'>['entries'];
}

export function memoryHandlers(deps: MemoryHandlerDeps): HandlersFor<'memory'> {
  const { memories, timeline, exporter, importer, maintenance, unconsolidate, access } = deps;
  return {
    'memory.create': (input) => memories.create(input),
    'memory.get': (input) => memories.get(input),
    'memory.list': (input) => memories.list(input),
    'memory.search': (input) => memories.search(input),
    'memory.update': (input) => memories.update(input),
    'memory.delete': ({ memoryId }) => memories.trash(memoryId),
    'memory.restore': ({ memoryId }) => memories.restore(memoryId),
    'memory.purge': ({ memoryId }) => memories.purge([memoryId]),
    'memory.emptyTrash': ({ trashedBefore }) => memories.emptyTrash(trashedBefore),
    'memory.revert': ({ memoryId, version }) => memories.revert(memoryId, version),
    'memory.unconsolidate': ({ memoryId }) => unconsolidate(memoryId),
    'memory.bulk': (input) => memories.bulk(input),
    'memory.stats': () => memories.stats(),
    'memory.asOf': (input) => timeline.asOf(input),
    'memory.access': ({ memoryId }) => ({ entries: access(memoryId) }),
    'memory.getMany': ({ memoryIds }) => ({ items: memoryIds.map((id) => memories.getMemory(id)).filter((m): m is NonNullable<typeof m> => m !== null) }),
    'memory.export': (input) => exporter.export(input),
    'memory.import': (input) => importer.import(input),
    'memory.maintain': () => maintenance.run(),
  };
}
