import { Navigate } from 'react-router';

/** `#/tabs` itself opens the first tab. */
const TabsIndexRoute = () => <Navigate to="/tabs/schedule" replace />;

export default TabsIndexRoute;
