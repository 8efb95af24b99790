/**
 * The master's status page on the NameNode's web server ({@code /mpcache}): what it shows, its
 * HTML, and the picture of the master it is built from.
 */
package org.mpcache.master.status;
