"""How customers ask for each action: a goal (after "You want to") and a request (after
"I'd like to"), per domain and tool. Slots in braces are the action's arguments as the
customer names them; ``{entity}`` is the record acted on ("your reservation 8TQVHG (from
DEN to LAX)"), written with "your" in goals and "my" in requests. Arguments no slot uses are
added as details. A tool missing here falls back to its name ("update baggage").
"""

from __future__ import annotations

from collections.abc import Mapping

Phrase = tuple[str, str]

PHRASES: Mapping[str, Mapping[str, Phrase]] = {
    "airline": {
        "book_reservation": (
            "book a {trip_type} trip from {origin} to {destination} in {cabin} class",
            "book a {trip_type} flight from {origin} to {destination} in {cabin}",
        ),
        "cancel_reservation": ("cancel {entity}", "cancel {entity}"),
        "change_cabin": ("move {entity} to {cabin} class", "change {entity} to {cabin} class"),
        "change_flights": ("change the flights of {entity}", "change the flights on {entity}"),
        "issue_compensation_certificate": (
            "get compensation for the disruption of flight {flight} on {date} on {entity}",
            "get compensation for flight {flight} on {date}, {entity}",
        ),
        "update_baggage": (
            "have {checked_bags} checked bags in total on {entity}",
            "have {checked_bags} checked bags in total on {entity}",
        ),
        "update_passengers": (
            "change the passengers on {entity} to {passengers}",
            "change the passengers on {entity} to {passengers}",
        ),
    },
    "retail": {
        "cancel_pending_order": (
            "cancel {entity} because it is {reason}",
            "cancel {entity}, it's {reason}",
        ),
        "change_order_payment_method": (
            "pay for {entity} with a different card or account",
            "change how I pay for {entity}",
        ),
        "change_pending_item": (
            "swap an item on {entity} for another variant",
            "swap an item on {entity}",
        ),
        "issue_late_delivery_credit": (
            "get the credit for the late delivery of {entity}",
            "get a credit because {entity} arrived late",
        ),
        "request_exchange": ("exchange items from {entity}", "exchange something from {entity}"),
        "request_return": ("return items from {entity}", "return something from {entity}"),
        "update_customer_address": (
            "change the address on your account to {line1}, {city}, {state} {zip_code}",
            "change the address on my account to {line1}, {city}, {state} {zip_code}",
        ),
        "update_order_address": (
            "have {entity} shipped to {line1}, {city}, {state} {zip_code}",
            "change where {entity} ships to: {line1}, {city}, {state} {zip_code}",
        ),
    },
    "telecom": {
        "cancel_autopay": ("turn off autopay on your account", "turn off autopay"),
        "change_plan": (
            "switch {line} to the {new_plan} plan",
            "switch {line} to the {new_plan} plan",
        ),
        "enroll_autopay": ("set up autopay", "set up autopay"),
        "open_ticket": (
            "open a {category} support ticket for {line}",
            "report a {category} problem with {line}",
        ),
        "pay_bill": ("pay {bill}", "pay {bill}"),
        "pay_off_device": ("pay off {device}", "pay off {device}"),
        "purchase_addon": ("add the {addon} to {line}", "add the {addon} to {line}"),
        "reactivate_line": ("reactivate {line}", "get {line} working again"),
        "reset_network_settings": (
            "reset the network settings of {line}",
            "reset the network settings on {line}",
        ),
        "set_international_roaming": (
            "turn {enabled} international roaming for {line}",
            "turn {enabled} roaming for {line}",
        ),
        "suspend_line": ("suspend {line}, reason: {reason}", "suspend {line}, {reason}"),
        "unlock_device": ("unlock {device}", "unlock {device}"),
        "waive_late_fee": (
            "have the late fee on {bill} waived",
            "get the late fee on {bill} waived",
        ),
    },
    "telehealth": {
        "apply_voucher": (
            "use {voucher_code} on {appointment}",
            "use {voucher_code} on {appointment}",
        ),
        "book_appointment": (
            "book a {visit_type} visit {slot}",
            "book a {visit_type} appointment {slot}",
        ),
        "cancel_appointment": ("cancel {appointment}", "cancel {appointment}"),
        "change_prescription_pharmacy": (
            "move {prescription} to {pharmacy}",
            "move {prescription} to {pharmacy}",
        ),
        "refund_payment": ("get a refund of {payment}", "get a refund of {payment}"),
        "request_device_replacement": (
            "get a replacement for {device} ({reason})",
            "get a replacement for {device}, {reason}",
        ),
        "request_refill": ("get a refill of {prescription}", "get a refill of {prescription}"),
        "reschedule_appointment": (
            "move {appointment} to {new_slot}",
            "move {appointment} to {new_slot}",
        ),
        "update_contact_details": (
            "update your contact details",
            "update my contact details",
        ),
        "update_insurance": (
            "put your new insurance on file: {plan}, {member_id}",
            "update my insurance to {plan}, {member_id}",
        ),
    },
    "bank": {
        "file_dispute": (
            "dispute {txn} ({reason})",
            "dispute {txn}, {reason}",
        ),
        "freeze_card": ("freeze {card}, reason: {reason}", "freeze {card}, {reason}"),
        "release_hold": ("have {hold} released", "get {hold} released"),
        "replace_card": ("replace {card}, reason: {reason}", "replace {card}, {reason}"),
        "reverse_fee": ("have {txn} reversed", "get {txn} reversed"),
        "set_card_limit": (
            "set the daily {limit_type} limit of {card} to {amount}",
            "set the {limit_type} limit on {card} to {amount}",
        ),
        "transfer_funds": (
            "move {amount} out of {from_account}",
            "transfer {amount} from {from_account}",
        ),
        "unfreeze_card": ("unfreeze {card}", "unfreeze {card}"),
        "update_mailing_address": (
            "change your mailing address to {street}, {city}, {state} {zip_code}",
            "change my mailing address to {street}, {city}, {state} {zip_code}",
        ),
    },
    "basketball": {
        "buy_tickets": (
            "buy {quantity} {zone} tickets for the game {game}",
            "buy {quantity} {zone} tickets for the game {game}",
        ),
        "cancel_camp_registration": ("cancel {registration}", "cancel {registration}"),
        "cancel_merch_order": ("cancel {entity}", "cancel {entity}"),
        "exchange_tickets": (
            "move the tickets of {entity} to the game {new_game}",
            "switch {entity} to the game {new_game}",
        ),
        "refund_tickets": ("get a refund for {entity}", "get my money back for {entity}"),
        "register_camper": (
            "register {camper_name} (born {camper_birth_date}) for {camp}",
            "sign {camper_name} (born {camper_birth_date}) up for {camp}",
        ),
        "return_merch_items": ("return items from {entity}", "return something from {entity}"),
        "set_pass_auto_renew": (
            "turn automatic renewal of your season pass {enabled}",
            "turn auto-renew on my season pass {enabled}",
        ),
        "upgrade_season_pass": (
            "upgrade your season pass to the {zone} zone",
            "upgrade my season pass to {zone}",
        ),
    },
    "movie": {
        "add_concessions": ("add snacks to {entity}", "add snacks to {entity}"),
        "book_tickets": ("book tickets for {showtime}", "book tickets for {showtime}"),
        "buy_film_pass": ("buy a {pass_type} pass", "buy a {pass_type} pass"),
        "cancel_booking": ("cancel {entity}", "cancel {entity}"),
        "change_membership": (
            "change your membership to {plan}",
            "change my membership to {plan}",
        ),
        "change_seats": ("change the seats of {entity}", "change my seats on {entity}"),
        "exchange_booking": ("move {entity} to {new_showtime}", "move {entity} to {new_showtime}"),
        "issue_incident_credit": (
            "get the credit for the disrupted screening of {entity}",
            "get a credit for the problem with the screening of {entity}",
        ),
    },
    "restaurant": {
        "book_private_event": (
            "book {room} for a private {package} event for {guests} guests on {date}",
            "book {room} for a {package} event for {guests} people on {date}",
        ),
        "cancel_order": ("cancel {entity}", "cancel {entity}"),
        "cancel_private_event": ("cancel {event}", "cancel {event}"),
        "cancel_reservation": ("cancel {entity}", "cancel {entity}"),
        "create_reservation": (
            "book a table for {party_size} at {location} on {date} at {time}",
            "book a table for {party_size} at {location} on {date} at {time}",
        ),
        "file_complaint": (
            "complain about {category} at {location}",
            "make a complaint about {category} at {location}",
        ),
        "modify_reservation": (
            "change {entity} to {party_size} people on {date} at {time}",
            "change {entity} to {party_size} people on {date} at {time}",
        ),
        "place_order": (
            "order for {fulfillment} from {location}",
            "place a {fulfillment} order from {location}",
        ),
        "refund_order_items": (
            "get a refund for items on {entity} ({reason})",
            "get a refund for part of {entity}, {reason}",
        ),
    },
    "school": {
        "book_appointment": (
            "book a meeting about {topic} for {student} with {staff} on {start}",
            "set up a meeting about {topic} for {student} with {staff} on {start}",
        ),
        "cancel_appointment": ("cancel {appointment}", "cancel {appointment}"),
        "create_payment_plan": (
            "set up a payment plan in {installments} installments for {student}",
            "split the balance for {student} into {installments} payments",
        ),
        "drop_section": ("drop {student} from {section}", "drop {student} from {section}"),
        "enroll_in_section": ("enroll {student} in {section}", "sign {student} up for {section}"),
        "join_waitlist": (
            "put {student} on the waitlist for {section}",
            "put {student} on the waitlist for {section}",
        ),
        "pay_fee": ("pay {amount} towards {fee}", "pay {amount} towards {fee}"),
        "report_absence": (
            "report {student} absent on {date} ({reason})",
            "report {student} absent on {date}, {reason}",
        ),
        "set_records_release": (
            "turn {allow} the release of the student records to guardians",
            "turn {allow} the records release",
        ),
    },
    "travel": {
        "add_tour": ("add {tour} on {date} to {entity}", "add {tour} on {date} to {entity}"),
        "book_trip": (
            "book {departure} with the {fare} fare and a {room_type} room",
            "book {departure}, {fare} fare, {room_type} room",
        ),
        "buy_insurance": (
            "buy {plan} travel insurance for {entity}",
            "add {plan} insurance to {entity}",
        ),
        "cancel_booking": ("cancel {entity} ({reason})", "cancel {entity}, {reason}"),
        "change_departure": (
            "move {entity} to {new_departure}",
            "move {entity} to {new_departure}",
        ),
        "change_room_type": (
            "change the room on {entity} to {room_type}",
            "change my room on {entity} to {room_type}",
        ),
        "correct_traveller_name": (
            "correct the name of {traveller} on {entity} to {full_name}",
            "fix the spelling of {traveller} on {entity} to {full_name}",
        ),
        "file_insurance_claim": (
            "file a {claim_type} claim of {amount} for an incident on {incident_date} on {entity}",
            "claim {amount} for {claim_type} from {incident_date} on {entity}",
        ),
    },
}

TRANSFER: Phrase = (
    "speak to a human agent about {about}",
    "talk to a human agent about {about}",
)
