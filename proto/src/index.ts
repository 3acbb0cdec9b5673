export * from './gen/lookout/agent/v1/agent_pb.js';
