/* occupancy.c - placeholder, being written. */
typedef int orion_placeholder_occupancy;
