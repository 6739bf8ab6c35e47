// The object-store surface: the interface, the local and S3 stores, and the store for a location.
export { LocalObjectStore } from './local.js';
export {
  type ByteRange,
  type ObjectMeta,
  ObjectNotFoundError,
  type ObjectStore,
  ObjectStoreAccessError,
  PreconditionFailedError,
  type PutCondition,
  type ReadOptions,
} from './object-store.js';
export { isRemoteLocation, objectStoreFor } from './object-store-for.js';
export { S3ObjectStore, s3ReadStats } from './s3.js';
export { DEFAULT_S3_CONFIG, type S3StoreConfig } from './s3-config.js';
