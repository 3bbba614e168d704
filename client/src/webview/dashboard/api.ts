// The dashboard page's handle on its host.
import type { DashboardToHost, HostToDashboard } from '../../dashboard/messages';
import { hostChannel } from '../kit/host-channel';

export const { post, loadState, saveState, onHostMessage } = hostChannel<DashboardToHost, HostToDashboard>();
