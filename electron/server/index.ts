export { startBridge, type Bridge, type BridgeOptions } from './bridge-server';
export { API_PATH, CLOSE, MAX_MESSAGE_BYTES, type CallMessage, type EventMessage, type ResultMessage } from '../../shared/bridge-protocol';
