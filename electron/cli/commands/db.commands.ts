import type { DbCheck } from '../../../shared/contract';
import type { CliCommand } from '../cli-command';

export const dbCommands: CliCommand[] = [
  {
    words: ['db', 'check'],
    synopsis: 'db check                 integrity, journal mode, synchronous, foreign keys, schema version',
    async run({ client }) {
      const r = await client.call('db.check', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: formatDbCheck(r.value) };
    },
  },
];

function formatDbCheck(c: DbCheck): string {
  return [
    `database       ${c.path}`,
    `integrity      ${c.integrity}`,
    `journal mode   ${c.journalMode}`,
    `synchronous    ${c.synchronous}`,
    `foreign keys   ${c.foreignKeys ? 'on' : 'off'}`,
    `secure delete  ${c.secureDelete ? 'on' : 'off'}`,
    `schema         ${c.schemaVersion}`,
    `size           ${c.sizeBytes} bytes`,
  ].join('\n');
}

