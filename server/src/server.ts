// Entry point of the language server: `node dist/server.js --stdio` (or --node-ipc when started by the client).
import { startServer } from './lsp/start';

startServer();
