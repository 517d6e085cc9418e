import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DeleteObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Config } from '../config.js';
import { newId } from '../lib/ids.js';

export type ObjectStore = {
  put(keyName: string, data: Buffer, contentType: string): Promise<void>;
  remove(keyName: string): Promise<void>;
};

/**
 * The one place a keyName becomes a file path. Keys are already of the
 * server's strict form; this check is the second lock (docs/security.md FU-04).
 */
export function resolveInside(root: string, keyName: string): string {
  const full = path.resolve(root, keyName);
  if (!full.startsWith(path.resolve(root) + path.sep))
    throw new Error('key escapes the media root');
  return full;
}

export function localStore(root: string): ObjectStore {
  return {
    async put(keyName, data) {
      const file = resolveInside(root, keyName);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a photo.
      const tmp = `${file}.${newId()}.tmp`;
      await writeFile(tmp, data, { mode: 0o644 });
      await rename(tmp, file);
    },
    async remove(keyName) {
      await rm(resolveInside(root, keyName), { force: true });
    },
  };
}

export function s3Store(s3: NonNullable<Config['s3']>): ObjectStore {
  const client = new S3Client({
    region: s3.region,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    forcePathStyle: s3.forcePathStyle,
    ...(s3.accessKeyId && s3.secretAccessKey
      ? {
          credentials: {
            accessKeyId: s3.accessKeyId,
            secretAccessKey: s3.secretAccessKey,
          },
        }
      : {}),
  });
  return {
    async put(keyName, data, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: s3.bucket,
          Key: keyName,
          Body: data,
          ContentType: contentType,
          CacheControl: 'public, max-age=86400',
        }),
      );
    },
    async remove(keyName) {
      await client.send(
        new DeleteObjectCommand({ Bucket: s3.bucket, Key: keyName }),
      );
    },
  };
}

export const objectStoreFor = (config: Config): ObjectStore =>
  config.s3
    ? s3Store(config.s3)
    : localStore(path.join(config.dataDir, 'media'));
