// The delivery module's public face: what other modules may import.
export { createDeliveryChecks } from './delivery-check';
export { createDeliveryModule } from './delivery-module';
