// The object-store surface: the interface, the local store, and the store for a location.
export { LocalObjectStore } from './local.js';
export {
  type ByteRange,
  type ObjectMeta,
  ObjectNotFoundError,
  type ObjectStore,
  PreconditionFailedError,
  type PutCondition,
  type ReadOptions,
} from './object-store.js';
export { objectStoreFor } from './object-store-for.js';
