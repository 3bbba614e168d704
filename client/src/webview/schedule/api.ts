// The timeline page's handle on its host.
import type { HostToTimeline, TimelineToHost } from '../../schedule/messages';
import { hostChannel } from '../kit/host-channel';

export const { post, loadState, saveState, onHostMessage } = hostChannel<TimelineToHost, HostToTimeline>();
