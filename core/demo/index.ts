// The demo module's public face: what other modules may import.
export { type DemoSandbox, startDemoSandbox } from './demo-sandbox';
export { demoScreen } from './demo-screen';
export { createDemoModule } from './demo-module';
