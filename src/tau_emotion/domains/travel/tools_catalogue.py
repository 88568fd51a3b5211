"""The public catalogue: packages with their hotels, departures with prices, tours."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.common import fmt, record_view
from tau_emotion.domains.tools import tool
from tau_emotion.domains.travel import rules
from tau_emotion.domains.travel.tools_base import TravelBase
from tau_emotion.errors import ToolError


class CatalogueTools(TravelBase):
    @tool("read")
    def search_packages(self, destination: str = "") -> list[dict[str, Any]]:
        """List trip packages with their hotel and room types (occupancy, supplement per room
        per night), optionally only those whose destination or country matches.

        Args:
            destination: City or country to match, e.g. 'Hanoi' or 'Greece'; empty for all.
        """
        wanted = destination.strip().lower()
        found = [
            record_view(p, hotel=record_view(self.db.hotels[p.hotel_id]))
            for p in self.db.packages.values()
            if wanted in p.destination.lower() or wanted in p.country.lower()
        ]
        if not found:
            places = sorted({p.destination for p in self.db.packages.values()})
            raise ToolError(
                f"no package goes to {destination!r}; destinations: {', '.join(places)}"
            )
        return found

    @tool("read")
    def get_departures(self, package_id: str) -> list[dict[str, Any]]:
        """List a package's upcoming departures with seats left and the adult price per
        person for each fare (children under 12 pay 75% of it).

        Args:
            package_id: Package id from search_packages, e.g. 'P503'.
        """
        package = self._package(package_id)
        out = []
        for dep in self.db.departures.values():
            if dep.package_id != package.id or dep.start_date <= rules.TODAY.isoformat():
                continue
            out.append(
                {
                    "departure_id": dep.id,
                    "start_date": dep.start_date,
                    "end_date": dep.end_date,
                    "seats_left": self._seats_left(dep),
                    "adult_price": {
                        fare: fmt(rules.fare_price(dep.base_price, fare)) for fare in rules.FARES
                    },
                    "bookable": rules.days_until(dep.start_date) >= rules.BOOK_MIN_LEAD_DAYS,
                }
            )
        return out

    @tool("read")
    def list_tours(self, destination: str) -> list[dict[str, Any]]:
        """List the optional tours at a destination: days offered, price per person, minimum
        age and duration.

        Args:
            destination: Destination city, e.g. 'Dubrovnik'.
        """
        wanted = destination.strip().lower()
        found = [record_view(t) for t in self.db.tours.values() if t.destination.lower() == wanted]
        if not found:
            raise ToolError(f"no tours at {destination!r}")
        return found
