import { useDispatch, useSelector } from 'react-redux';
// Types only: erased at build time, so lib still has no runtime edge to app/.
import type { AppDispatch, RootState } from '@/app/store';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
