import type { ChatToHostMessage } from '../../shared/chatProtocol';

/** How a chat view asks the host for something (the channel's page side). */
export type Send = (message: ChatToHostMessage) => void;
