import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { users } from '../../src/db/schema.js';
import { signAccessToken } from '../../src/plugins/auth.js';
import { call, harness, type Harness } from '../helper.js';

describe('storage on an S3-compatible bucket (s3rver on loopback)', () => {
  let server: S3rver;
  let dir: string;
  let h: Harness;
  let endpoint: string;
  let token: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'proam-s3-'));
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'proam-media', configs: [] }],
    });
    const { port } = (await server.run()) as { port: number };
    endpoint = `http://127.0.0.1:${port}`;
    h = await harness('pglite', {
      S3_BUCKET: 'proam-media',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      MEDIA_BASE_URL: 'https://cdn.example.jp/',
    });
    const [pro] = (await h.database.db.select().from(users)).filter(
      (u) => u.type === 'pro',
    );
    token = signAccessToken(h.app, { id: pro!.id, type: 'pro' });
  });
  after(async () => {
    await h.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts the cleaned image in the bucket, gives the CDN URL, and deletes it', async () => {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#fff' },
    })
      .png()
      .toBuffer();
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const r = await call(
      h.app,
      '/storage/upload',
      { data: png.toString('base64') },
      auth,
    );
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const { keyName, url } = r.json.body as { keyName: string; url: string };
    assert.equal(url, `https://cdn.example.jp/${keyName}`);
    const s3 = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const got = await s3.send(
      new GetObjectCommand({ Bucket: 'proam-media', Key: keyName }),
    );
    assert.equal(got.ContentType, 'image/png');
    const bytes = Buffer.from(await got.Body!.transformToByteArray());
    assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
    const d = await call(h.app, '/storage/delete', { keyName }, auth);
    assert.deepEqual(d.json.body, { deletedCount: 1 });
    await assert.rejects(
      s3.send(new GetObjectCommand({ Bucket: 'proam-media', Key: keyName })),
    );
  });
});
