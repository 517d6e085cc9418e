import type { ImageInfo, User, UserUpdateInput } from '@proam/contract';
import type { AppDispatch } from '@/app/store';
import { api, postArg } from '@/lib/api';

/**
 * What `/user/update` takes: the editable part of the User object. The pro
 * and amateur fields come from the update input, which leaves out what the
 * server keeps (a pro's verification and rating).
 */
export type ProfileUpdate = Pick<User, 'id' | 'userName'> &
  Partial<Pick<User, 'nameKana' | 'area' | 'bio'>> &
  Partial<Pick<UserUpdateInput, 'pro' | 'amateur'>>;

export type UploadInput = {
  fileName?: string;
  contentType?: string;
  data: string;
};
export type Uploaded = { keyName: string; url: string };

/**
 * Profiles and photos (docs/api.md, Users and Storage). The cache entries of
 * `getUser` (by id) are the home of a profile (app/store.ts).
 */
/** /user/updateImageInfo's request: the photos in order, by key (the first is the main one). */
const photosInOrder = (imageInfo: readonly Pick<ImageInfo, 'keyName'>[]) => ({
  path: '/user/updateImageInfo',
  body: { imageInfo: imageInfo.map(({ keyName }) => ({ keyName })) },
});

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUser: build.query<User | null, string>({
      query: (id) => ({ path: '/user/read', body: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'User', id }],
    }),
    getUsersByIdList: build.query<User[], readonly string[]>({
      query: (idList) => ({ path: '/user/getByIdList', body: { idList } }),
      providesTags: (result = []) =>
        result.map((u) => ({ type: 'User' as const, id: u.id })),
    }),
    updateUser: build.mutation<User, ProfileUpdate>({
      query: postArg('/user/update'),
      onQueryStarted: cacheAnsweredUser,
    }),
    /** Silent: the photo's own tile says what went wrong and offers to send it again. */
    uploadImage: build.mutation<Uploaded, UploadInput>({
      query: postArg('/storage/upload', { silent: true }),
    }),
    /** Also takes the photo off the profile (the server does both). */
    deleteImage: build.mutation<
      { deletedCount: number },
      { keyName: string; userId: string }
    >({
      query: ({ keyName }) => ({ path: '/storage/delete', body: { keyName } }),
      invalidatesTags: (_r, _e, { userId }) => [{ type: 'User', id: userId }],
    }),
    /** The photos in order; the first is the main one. */
    updateImageInfo: build.mutation<
      User,
      readonly Pick<ImageInfo, 'keyName'>[]
    >({
      query: (imageInfo) => photosInOrder(imageInfo),
      onQueryStarted: cacheAnsweredUser,
    }),
    /**
     * updateImageInfo for a photo just uploaded, silent like the upload: the
     * photo's own tile says what went wrong and offers to send it again.
     */
    addUploadedImage: build.mutation<
      User,
      readonly Pick<ImageInfo, 'keyName'>[]
    >({
      query: (imageInfo) => ({ ...photosInOrder(imageInfo), silent: true }),
      onQueryStarted: cacheAnsweredUser,
    }),
    deleteAccount: build.mutation<
      { deleted: true },
      { email: string; password: string }
    >({
      // Like the login, account deletion uses the app's Basic credentials.
      query: postArg('/auth/delete', { auth: 'client', silent: true }),
    }),
  }),
});

export const {
  useGetUserQuery,
  useGetUsersByIdListQuery,
  useUpdateUserMutation,
  useUploadImageMutation,
  useDeleteImageMutation,
  useUpdateImageInfoMutation,
  useAddUploadedImageMutation,
  useDeleteAccountMutation,
} = profileApi;

/**
 * Puts the user a change answered with into their cached profile. On a
 * failure, shown by the base query, the cache keeps the profile as it was
 * (the form keeps what was typed, the photos their old order).
 */
async function cacheAnsweredUser(
  _arg: unknown,
  {
    dispatch,
    queryFulfilled,
  }: { dispatch: AppDispatch; queryFulfilled: Promise<{ data: User }> },
): Promise<void> {
  try {
    const { data } = await queryFulfilled;
    // Fire-and-forget: the cache entry is written synchronously.
    void dispatch(profileApi.util.upsertQueryData('getUser', data.id, data));
  } catch {
    // Nothing to undo: nothing was written before the answer.
  }
}
