// Creates the media bucket (S3_BUCKET) if it is missing, with the same S3_*
// settings the server reads (apps/api/src/config.ts). compose.yaml runs it once
// in the app's own image (whose production dependencies have the AWS SDK)
// before the API instances start. Waits for the store to come up.
import {
  CreateBucketCommand,
  HeadBucketCommand,
  S3Client,
} from '@aws-sdk/client-s3';

const env = (name) => process.env[name]?.trim() || undefined;
const bucket = env('S3_BUCKET');
if (!bucket) {
  console.error('create-bucket: S3_BUCKET is not set');
  process.exit(78);
}
const accessKeyId = env('S3_ACCESS_KEY_ID');
const secretAccessKey = env('S3_SECRET_ACCESS_KEY');
const client = new S3Client({
  region: env('S3_REGION') ?? 'ap-northeast-1',
  ...(env('S3_ENDPOINT') ? { endpoint: env('S3_ENDPOINT') } : {}),
  forcePathStyle: /^(1|true|yes|on)$/i.test(env('S3_FORCE_PATH_STYLE') ?? ''),
  ...(accessKeyId && secretAccessKey
    ? { credentials: { accessKeyId, secretAccessKey } }
    : {}),
});

const deadline = Date.now() + 120_000;
for (;;) {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    console.log(`create-bucket: ${bucket} exists`);
    break;
  } catch (err) {
    const status = err?.$metadata?.httpStatusCode;
    if (status === 404) {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      console.log(`create-bucket: ${bucket} created`);
      break;
    }
    if (status === 401 || status === 403) {
      console.error(
        `create-bucket: refused (${status}): check S3_ACCESS_KEY_ID`,
      );
      process.exit(1);
    }
    // Not up yet (connection refused, 5xx while it starts): try again.
    if (Date.now() > deadline) {
      console.error(`create-bucket: the store did not answer: ${err}`);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}
