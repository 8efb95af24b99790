/**
 * The master's view of the NameNode: blocks resolved to the data sets they belong to, under the
 * namesystem lock in holds of bounded work, and what admins set on a data set's path.
 */
package org.mpcache.master.namespace;
