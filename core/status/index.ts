// The status bar's public face: its snapshot and the calls that read it.
export { createStatusBar, type StatusBar } from './status-bar';
export { createStatusModule } from './status-module';
