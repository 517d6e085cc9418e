import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  DeletedCountSchema,
  ImageInfoSchema,
  StorageDeleteInputSchema,
  StorageUpdateInputSchema,
  UPLOAD_BODY_LIMIT_BYTES,
  UploadInputSchema,
} from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import { defineRoute, perCaller, type Caller } from '../lib/route.js';
import { imageQueue } from '../storage/image-queue.js';
import {
  CONTENT_TYPES,
  cleanImage,
  decodeBase64,
  inspectImage,
} from '../storage/images.js';

/** Per-member cap on stored objects (docs/security.md FU-08). */
export const MAX_OBJECTS_PER_USER = 50;

export function storageRoutes(app: FastifyInstance): void {
  const { repos, config, clock, objectStore: store } = app;
  const media = repos.media;
  const tags = ['storage'];
  const urlOf = (keyName: string) => config.mediaBaseUrl + keyName;

  async function ownedOrThrow(
    keyName: string,
    caller: Caller,
    allowAdmin: boolean,
  ) {
    const row = await media.find(keyName);
    if (!row) throw new ApiError('NotFound');
    if (row.ownerId !== caller.id && !(allowAdmin && caller.type === 'admin'))
      throw new ApiError('Forbidden');
    return row;
  }

  /**
   * An upload or a replacement: room for the image, at most 30 an hour per
   * member. A larger body is refused before it is read, as 413
   * PayloadTooLarge in the NG envelope (plugins/errors.ts), like an image
   * over 5 MiB once decoded (decodeBase64).
   */
  const imageBody = () => ({
    bodyLimit: UPLOAD_BODY_LIMIT_BYTES,
    rateLimit: { max: 30, timeWindow: '1 hour', keyGenerator: perCaller },
  });

  defineRoute(app, {
    path: '/storage/upload',
    auth: 'bearer',
    summary:
      'Upload an image (JPEG, PNG, WebP, GIF; ≤ 5 MiB); metadata is stripped',
    tags,
    input: UploadInputSchema,
    output: ImageInfoSchema,
    ...imageBody(),
    handler: async ({ input, caller }) => {
      if ((await media.count(caller.id)) >= MAX_OBJECTS_PER_USER)
        throw new ApiError('TooManyRequests');
      // The header check refuses huge canvases before they take a turn.
      const image = await inspectImage(decodeBase64(input.data));
      const { kind, data } = await imageQueue.run(caller.id, () =>
        cleanImage(image),
      );
      // 128 random bits: media are public by name, so a name must not be guessable.
      const keyName = `users/${caller.id}/${randomBytes(16).toString('base64url')}.${kind}`;
      await store.put(keyName, data, CONTENT_TYPES[kind]);
      await media.add(
        keyName,
        caller.id,
        CONTENT_TYPES[kind],
        data.length,
        clock.now(),
      );
      return { keyName, url: urlOf(keyName) };
    },
  });

  defineRoute(app, {
    path: '/storage/update',
    auth: 'bearer',
    summary: 'Replace an image the caller uploaded',
    tags,
    input: StorageUpdateInputSchema,
    output: ImageInfoSchema,
    ...imageBody(),
    handler: async ({ input, caller }) => {
      await ownedOrThrow(input.keyName, caller, false);
      const image = await inspectImage(decodeBase64(input.data));
      // The key keeps its extension: a replacement must be the same kind of image.
      if (!input.keyName.endsWith(`.${image.kind}`))
        throw new ApiError('UnsupportedMediaType');
      const { kind, data } = await imageQueue.run(caller.id, () =>
        cleanImage(image),
      );
      await store.put(input.keyName, data, CONTENT_TYPES[kind]);
      await media.touch(input.keyName, CONTENT_TYPES[kind], data.length);
      return { keyName: input.keyName, url: urlOf(input.keyName) };
    },
  });

  defineRoute(app, {
    path: '/storage/delete',
    auth: 'bearer',
    summary:
      'Delete an image the caller uploaded (admins: any); it leaves the profile too',
    tags,
    input: StorageDeleteInputSchema,
    output: DeletedCountSchema,
    handler: async ({ input, caller }) => {
      const row = await ownedOrThrow(input.keyName, caller, true);
      await repos.users.removeImage(row.ownerId, input.keyName);
      const deletedCount = await media.remove(input.keyName);
      await store.remove(input.keyName);
      return { deletedCount };
    },
  });
}
