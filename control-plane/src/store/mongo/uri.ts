/**
 * Where a MongoDB connection string points, for messages and logs: the scheme and hosts, never the
 * user name or password (`mongodb://ops:secret@db1:27017,db2/?replicaSet=rs0` → `mongodb://db1:27017,db2`).
 */
export const mongoHosts = (uri: string): string => {
  const m = /^(mongodb(?:\+srv)?:\/\/)([^/?#]*)/.exec(uri);
  if (!m) return 'mongodb://?';
  const authority = m[2]!;
  return `${m[1]}${authority.slice(authority.lastIndexOf('@') + 1)}`;
};

/** `database "lookout" on mongodb://db1:27017,db2`: what a store on MongoDB is, without credentials. */
export const describeMongoStore = (uri: string, dbName: string) =>
  `database "${dbName}" on ${mongoHosts(uri)} (MongoDB)`;
