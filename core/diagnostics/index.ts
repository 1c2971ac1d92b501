// The diagnostics module's public face: what other modules may import.
export { createDiagnosticsModule } from './diagnostics-module';
