typedef int orion_placeholder_pass;
