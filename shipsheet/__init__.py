"""ShipSheet: ship sheets for War In Space, Triplanetary and Federation Commander."""

__version__ = "0.1.0"
