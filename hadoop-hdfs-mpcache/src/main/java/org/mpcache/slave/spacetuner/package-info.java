/**
 * The Dynamic Space Tuner of the mpCache paper's slave: splits the SSD between Input Cache,
 * Dynamic Pool and Localized Cache, grants task attempts room for intermediate data, and measures
 * what the localized dirs hold.
 */
package org.mpcache.slave.spacetuner;
