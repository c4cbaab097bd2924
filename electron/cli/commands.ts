/**
 * The terminal host's commands: each maps words to one contract operation and a human-readable rendering.
 * `--json` prints the operation's value as JSON instead.
 */
import { backupCommands } from './commands/backup.commands';
import { chatCommands } from './commands/chat.commands';
import { dbCommands } from './commands/db.commands';
import { embeddingCommands } from './commands/embedding.commands';
import { memoryCommands } from './commands/memory.commands';
import { modelsCommands } from './commands/models.commands';
import { profileCommands } from './commands/profile.commands';
import { episodeCommands } from './commands/episode.commands';
import { settingsCommands } from './commands/settings.commands';
import { threadSettingsCommands } from './commands/thread-settings.commands';
import { threadFocusCommands } from './commands/thread-focus.commands';
import { threadSearchCommands } from './commands/thread-search.commands';
import { threadTransferCommands } from './commands/thread-transfer.commands';
import { transferCommands } from './commands/transfer.commands';
import { infoCommands } from './commands/info.commands';
import { mcpCommands } from './commands/mcp.commands';
import type { CliCommand } from './cli-command';

export const commands: CliCommand[] = [...infoCommands, ...dbCommands, ...backupCommands, ...chatCommands, ...modelsCommands, ...threadTransferCommands, ...threadSettingsCommands, ...threadFocusCommands, ...threadSearchCommands, ...embeddingCommands, ...memoryCommands, ...episodeCommands, ...transferCommands, ...profileCommands, ...mcpCommands, ...settingsCommands];
